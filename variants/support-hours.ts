/**
 * Support opening hours (variants/schema.ts SupportHours) written in a UI language, for the web
 * app's footer and the platform's PDFs alike: plain data and strings, no Lingui (the platform has
 * no catalog), so both sides show the same words. Times stay 24-hour HH:MM in every language.
 */
import type { SupportHours } from './schema.ts';

type HoursLanguage = 'en' | 'es' | 'pt' | 'ro' | 'ru' | 'uk';

const DAYS: Record<HoursLanguage, Record<SupportHours['days'], string>> = {
  en: { monFri: 'Mon–Fri', monSat: 'Mon–Sat', everyDay: 'Every day' },
  es: { monFri: 'Lun–vie', monSat: 'Lun–sáb', everyDay: 'Todos los días' },
  pt: { monFri: 'Seg–sex', monSat: 'Seg–sáb', everyDay: 'Todos os dias' },
  ro: { monFri: 'Lun–vin', monSat: 'Lun–sâm', everyDay: 'Zilnic' },
  ru: { monFri: 'Пн–пт', monSat: 'Пн–сб', everyDay: 'Ежедневно' },
  uk: { monFri: 'Пн–пт', monSat: 'Пн–сб', everyDay: 'Щодня' },
};

/** CET, EET and GMT are read as they are in every language; the UK's own time is said in words. */
const ZONES: Record<HoursLanguage, Record<SupportHours['timeZone'], string>> = {
  en: { CET: 'CET', EET: 'EET', GMT: 'GMT', UK: 'UK time' },
  es: { CET: 'CET', EET: 'EET', GMT: 'GMT', UK: 'hora del Reino Unido' },
  pt: { CET: 'CET', EET: 'EET', GMT: 'GMT', UK: 'hora do Reino Unido' },
  ro: { CET: 'CET', EET: 'EET', GMT: 'GMT', UK: 'ora Regatului Unit' },
  ru: { CET: 'CET', EET: 'EET', GMT: 'GMT', UK: 'по времени Великобритании' },
  uk: { CET: 'CET', EET: 'EET', GMT: 'GMT', UK: 'за часом Великої Британії' },
};

/** A UI or settings language (uk / ua, au is English) as one the hours are written in. */
function hoursLanguage(lang: string): HoursLanguage {
  const base = lang.toLowerCase().slice(0, 2);
  if (base === 'ua') return 'uk';
  return base in DAYS ? (base as HoursLanguage) : 'en';
}

/** e.g. "Mon–Fri 08:00–20:00 CET", "Пн–пт 09:00–17:30 за часом Великої Британії". */
export function formatSupportHours(hours: SupportHours, lang: string): string {
  const l = hoursLanguage(lang);
  return `${DAYS[l][hours.days]} ${hours.opens}–${hours.closes} ${ZONES[l][hours.timeZone]}`;
}
