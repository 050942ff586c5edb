// Room: what a long-lived process needs to stay up (the crash guard of the server and the sandbox).
// No `vscode` import here.
export { installCrashGuard } from './crash-guard';
