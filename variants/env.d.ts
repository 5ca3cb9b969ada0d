/** The build-time variant id (vite.config.ts `define`). */
interface ImportMetaEnv {
  readonly VARIANT?: string;
}
