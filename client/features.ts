// The features beside live validation. Each registers its own commands, views and providers.

import type { Feature } from './extension-state';

export const features: Feature[] = [];
