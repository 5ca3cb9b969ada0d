/**
 * The UI language (document 1 §1): initialised before anything renders, English by default,
 * `uk` in the UI and `ua` in the customer's settings, an extra `au` catalog that falls back to
 * English. Catalogs are loaded on demand, one chunk per language and part, so /login downloads
 * only its language's sign-in part; the routes that need the rest load the app part before they
 * render (ensureAppCatalog; lingui.config.ts says which sources go where).
 *
 * The app uses Lingui's global instance so the `t` macro works in any module (request wrapper,
 * views) without passing the instance around.
 */
import { i18n, type Messages } from '@lingui/core';

export { i18n };

export const uiLanguages = ['en', 'es', 'pt', 'ro', 'ru', 'uk', 'au'] as const;
export type UiLang = (typeof uiLanguages)[number];
export type SettingsLang = 'en' | 'es' | 'pt' | 'ro' | 'ru' | 'ua';

export const DEFAULT_UI_LANG: UiLang = 'en';
/** localStorage key of the language the user picked on this device. */
export const UI_LANG_STORAGE_KEY = 'uiLanguage';

/** The name of each language in itself, for the language switcher (never translated). */
export const languageNames: Record<UiLang, string> = {
  en: 'English',
  es: 'Español',
  pt: 'Português',
  ro: 'Română',
  ru: 'Русский',
  uk: 'Українська',
  au: 'English (Australia)',
};

/** BCP 47 tags for Intl formatting and the Accept-Language header. */
export const languageTags: Record<UiLang, string> = {
  en: 'en',
  es: 'es',
  pt: 'pt',
  ro: 'ro',
  ru: 'ru',
  uk: 'uk',
  au: 'en-AU',
};

type CatalogPart = 'signIn' | 'app';
type Loader = () => Promise<{ messages: Messages }>;
const loaders: Record<CatalogPart, Record<UiLang, Loader>> = {
  signIn: {
    en: () => import('../../locales/en.po'),
    es: () => import('../../locales/es.po'),
    pt: () => import('../../locales/pt.po'),
    ro: () => import('../../locales/ro.po'),
    ru: () => import('../../locales/ru.po'),
    uk: () => import('../../locales/uk.po'),
    au: () => import('../../locales/au.po'),
  },
  app: {
    en: () => import('../../locales/app/en.po'),
    es: () => import('../../locales/app/es.po'),
    pt: () => import('../../locales/app/pt.po'),
    ro: () => import('../../locales/app/ro.po'),
    ru: () => import('../../locales/app/ru.po'),
    uk: () => import('../../locales/app/uk.po'),
    au: () => import('../../locales/app/au.po'),
  },
};
/** The parts every language switch loads: the sign-in part always, the app part once a route asked. */
const wantedParts = new Set<CatalogPart>(['signIn']);
/** The language whose app part is active, and the load in progress for it. */
let appCatalog: { lang: UiLang; ready: Promise<void> } | null = null;

export function isUiLang(value: unknown): value is UiLang {
  return typeof value === 'string' && (uiLanguages as readonly string[]).includes(value);
}

export function toSettingsLanguage(ui: UiLang): SettingsLang {
  if (ui === 'uk') return 'ua';
  if (ui === 'au') return 'en';
  return ui;
}

export function fromSettingsLanguage(settings: string): UiLang {
  if (settings === 'ua') return 'uk';
  return isUiLang(settings) ? settings : DEFAULT_UI_LANG;
}

export function getUiLanguage(): UiLang {
  return isUiLang(i18n.locale) ? i18n.locale : DEFAULT_UI_LANG;
}

/** The language's BCP 47 tag (for Intl and Accept-Language). */
export function getUiLanguageTag(): string {
  return languageTags[getUiLanguage()];
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    // Storage can throw when the browser blocks it (privacy mode, sandboxed iframe).
    return null;
  }
}

let latestActivation = 0;

/** Loads the language's catalog parts and makes it active, without remembering the choice. */
export async function activateUiLanguage(lang: UiLang): Promise<void> {
  const activation = ++latestActivation;
  const parts = [...wantedParts];
  const loaded = await Promise.all(parts.map((part) => loaders[part][lang]()));
  // A switch made while this one loaded wins (a route's catalog load must not undo it).
  if (activation !== latestActivation) return;
  i18n.loadAndActivate({ locale: lang, messages: Object.assign({}, ...loaded.map((l) => l.messages)) as Messages });
  appCatalog = parts.includes('app') ? { lang, ready: Promise.resolve() } : null;
  if (typeof document !== 'undefined') document.documentElement.lang = languageTags[lang];
}

/**
 * The messages of every screen but the sign-in page, in the active language (and in every language
 * switched to later). Routes outside the sign-in page await it before they render; loaded once.
 */
export function ensureAppCatalog(): Promise<void> {
  const lang = getUiLanguage();
  if (appCatalog?.lang === lang) return appCatalog.ready;
  wantedParts.add('app');
  const ready = activateUiLanguage(lang).catch((error: unknown) => {
    // A failed load (network) is tried again by the next route that asks.
    appCatalog = null;
    throw error;
  });
  appCatalog = { lang, ready };
  return ready;
}

/** Switches the UI language and remembers it on this device. */
export async function setUiLanguage(lang: UiLang): Promise<void> {
  if (!isUiLang(lang)) throw new Error(`unknown UI language: ${String(lang)}`);
  await activateUiLanguage(lang);
  storage()?.setItem(UI_LANG_STORAGE_KEY, lang);
}

/**
 * Picks the start language: the saved choice, else the browser's, else English; always one of
 * `allowed` (the variant's languages). Must resolve before the first render.
 */
export function pickStartLanguage(opts: {
  allowed: readonly UiLang[];
  saved: string | null;
  browser: readonly string[];
}): UiLang {
  const allowed = opts.allowed.length > 0 ? opts.allowed : [DEFAULT_UI_LANG];
  if (isUiLang(opts.saved) && allowed.includes(opts.saved)) return opts.saved;
  for (const tag of opts.browser) {
    const lower = tag.toLowerCase();
    if (lower === 'en-au' && allowed.includes('au')) return 'au';
    const primary = lower.split('-')[0] ?? '';
    if (isUiLang(primary) && primary !== 'au' && allowed.includes(primary)) return primary;
  }
  return allowed.includes(DEFAULT_UI_LANG) ? DEFAULT_UI_LANG : (allowed[0] ?? DEFAULT_UI_LANG);
}

/**
 * `appCatalog`: the app part is loaded with the sign-in part, in parallel (a restored session
 * opening a signed-in page, which would ask for it before rendering anyway).
 */
/** The language the app starts in: the one saved on this device, else the browser's, among `allowed`. */
export function startLanguage(allowed: readonly UiLang[] = uiLanguages): UiLang {
  const browser = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);
  return pickStartLanguage({ allowed, saved: storage()?.getItem(UI_LANG_STORAGE_KEY) ?? null, browser });
}

export async function initI18n(opts: { allowed?: readonly UiLang[]; appCatalog?: boolean } = {}): Promise<void> {
  const lang = startLanguage(opts.allowed);
  if (opts.appCatalog) {
    wantedParts.add('app');
    try {
      await activateUiLanguage(lang);
      return;
    } catch {
      // the app part is asked for again by the route that needs it (ensureAppCatalog)
      wantedParts.delete('app');
    }
  }
  await activateUiLanguage(lang);
}
