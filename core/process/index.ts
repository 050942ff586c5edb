// TODO room comment
export { installCrashGuard } from './crash-guard';
