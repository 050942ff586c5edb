// The features beside live validation. Each registers its own commands, views and providers.

import { registerNewNotice } from './authoring/new-notice-command';
import type { Feature } from './extension-state';
import { registerMarket } from './market';
import { registerPreview } from './preview/preview-panel';
import { registerPublication } from './publication';

export const features: Feature[] = [registerPublication, registerMarket, registerNewNotice, registerPreview];
