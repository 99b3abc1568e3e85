// electron-builder reads this file (`npm run dist`); the configuration and why it is so: scripts/desktop/builder-config.ts.
import { builderConfig } from './scripts/desktop/builder-config';

export default builderConfig(process.env);
