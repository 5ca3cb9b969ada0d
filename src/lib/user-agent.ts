/**
 * A short "browser on system" description of a user agent, for the companion's request card: the
 * user recognises "Firefox on Windows" faster than a 150-character string. Unknown parts fall back
 * to the (truncated) string itself.
 */
const BROWSERS: [RegExp, string][] = [
  [/Edg(e|A|iOS)?\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\/|Chromium\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];
const SYSTEMS: [RegExp, string][] = [
  [/Android/, 'Android'],
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];
export const MAX_USER_AGENT_SHOWN = 80;

export function describeUserAgent(userAgent: string): string {
  const ua = userAgent.slice(0, 1024);
  const browser = BROWSERS.find(([re]) => re.test(ua))?.[1];
  const system = SYSTEMS.find(([re]) => re.test(ua))?.[1];
  if (browser && system) return `${browser}, ${system}`;
  if (browser ?? system) return (browser ?? system) as string;
  return ua.length > MAX_USER_AGENT_SHOWN ? `${ua.slice(0, MAX_USER_AGENT_SHOWN)}…` : ua || '?';
}
