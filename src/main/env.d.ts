// Build-time values electron-vite inlines into the main bundle (MAIN_VITE_* from the environment or .env files).
interface ImportMetaEnv {
  readonly MAIN_VITE_SUPABASE_URL?: string;
  readonly MAIN_VITE_SUPABASE_ANON_KEY?: string;
  /** STOREWISE_UPDATE_URL at build time (electron.vite.config.ts): the HTTPS update feed. */
  readonly MAIN_VITE_UPDATE_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
