/** The build-time variant id (vite.config.ts `define`). */
interface ImportMetaEnv {
  readonly VARIANT?: string;
}

/** The active variant's token stylesheet (variants/vite-plugin.ts). */
declare module 'virtual:variant-tokens.css';

/** The URL of the active variant's logo mark (variants/vite-plugin.ts). */
declare module 'virtual:variant-logo' {
  const url: string;
  export default url;
}
