/**
 * The app's stylesheets, in cascade order, for both entries (src/main.tsx, src/device/main.tsx):
 * the self-hosted Inter (every subset, Cyrillic included, each fetched only when a page uses its
 * characters: unicode-range), the default tokens, the build's variant tokens (variants/
 * vite-plugin.ts), the shared components, then the shell. Vite puts them all in the entry's
 * stylesheet in <head>: the first paint has the brand's font metrics and colours.
 */
import './fonts.css';
import './tokens.css';
import 'virtual:variant-tokens.css';
import './components.css';
import './theme.css';
