/**
 * The icon set (see icons-core.tsx for the factory and the rules): every icon, for pages and the
 * shell; the shared components import icons-core.tsx directly.
 */
import { icon } from './icons-core.tsx';

export { AlertIcon, CheckIcon, ChevronDownIcon, CloseIcon, InfoIcon, icon, type IconComponent, type IconProps } from './icons-core.tsx';

export const HomeIcon = /* @__PURE__ */ icon('home', () => <path d="M3.5 10.5 12 3.5l8.5 7V20a1 1 0 0 1-1 1H15v-6H9v6H4.5a1 1 0 0 1-1-1z" />);
export const SendIcon = /* @__PURE__ */ icon('send', () => <path d="M21 3 10.5 13.5M21 3l-6.5 18-4-7.5L3 9.5z" />);
export const HistoryIcon = /* @__PURE__ */ icon('history', () => <><path d="M3.5 12a8.5 8.5 0 1 0 2.5-6" /><path d="M3.5 3.5V8H8" /><path d="M12 7.5V12l3 2" /></>);
export const StatementsIcon = /* @__PURE__ */ icon('statements', () => <><path d="M14 3H6.5a1 1 0 0 0-1 1v16a1 1 0 0 0 1 1h11a1 1 0 0 0 1-1V7.5z" /><path d="M14 3v4.5h4.5M9 12h6M9 16h6" /></>);
export const ProfileIcon = /* @__PURE__ */ icon('profile', () => <><circle cx="12" cy="8" r="4" /><path d="M4 20.5c1.2-3.8 4.3-5.5 8-5.5s6.8 1.7 8 5.5" /></>);
export const SettingsIcon = /* @__PURE__ */ icon('settings', () => <><circle cx="12" cy="12" r="3" /><path d="M19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1z" /></>);
export const LogoutIcon = /* @__PURE__ */ icon('logout', () => <><path d="M9.5 21H5a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1h4.5" /><path d="M16 17l5-5-5-5M21 12H9.5" /></>);
export const PlusIcon = /* @__PURE__ */ icon('plus', () => <path d="M12 5v14M5 12h14" />);
export const ArrowLeftIcon = /* @__PURE__ */ icon('arrow-left', () => <path d="M19 12H5m6-6-6 6 6 6" />);
export const ArrowRightIcon = /* @__PURE__ */ icon('arrow-right', () => <path d="M5 12h14m-6-6 6 6-6 6" />);
export const MenuIcon = /* @__PURE__ */ icon('menu', () => <path d="M4 6.5h16M4 12h16M4 17.5h16" />);
export const CardIcon = /* @__PURE__ */ icon('card', () => <><rect x="2.5" y="5" width="19" height="14" rx="2" /><path d="M2.5 10h19M6.5 15h4" /></>);
export const BusinessIcon = /* @__PURE__ */ icon('business', () => <><rect x="3" y="7" width="18" height="13.5" rx="1.5" /><path d="M8.5 7V5a1.5 1.5 0 0 1 1.5-1.5h4A1.5 1.5 0 0 1 15.5 5v2M3 12.5h18M10.5 12.5v2h3v-2" /></>);
export const GlobeIcon = /* @__PURE__ */ icon('globe', () => <><circle cx="12" cy="12" r="9" /><path d="M3 12h18M12 3c2.4 2.5 3.6 5.5 3.6 9s-1.2 6.5-3.6 9c-2.4-2.5-3.6-5.5-3.6-9S9.6 5.5 12 3z" /></>);
export const PeopleIcon = /* @__PURE__ */ icon('people', () => <><circle cx="9" cy="8" r="3.5" /><path d="M2.5 20c.8-3.6 3.3-5.5 6.5-5.5s5.7 1.9 6.5 5.5" /><path d="M15.5 4.8a3.5 3.5 0 0 1 0 6.4M18 14.8c1.8.8 3 2.5 3.5 5.2" /></>);
export const LayersIcon = /* @__PURE__ */ icon('layers', () => <><path d="m12 3 9 5-9 5-9-5z" /><path d="m3 13 9 5 9-5" /></>);
export const ExchangeIcon = /* @__PURE__ */ icon('exchange', () => <path d="M4 8h14.5m-4-4 4 4-4 4M20 16H5.5m4-4-4 4 4 4" />);
export const DownloadIcon = /* @__PURE__ */ icon('download', () => <path d="M12 3.5v12m-5-5 5 5 5-5M4.5 20.5h15" />);
export const BellIcon = /* @__PURE__ */ icon('bell', () => <><path d="M6 16.5V11a6 6 0 0 1 12 0v5.5l1.5 2h-15z" /><path d="M10 21h4" /></>);
export const NewsIcon = /* @__PURE__ */ icon('news', () => <><rect x="3.5" y="4.5" width="17" height="15" rx="1.5" /><path d="M7 8.5h10M7 12h4.5M7 15.5h4.5M14 12h3v3.5h-3z" /></>);
export const ReceiptIcon = /* @__PURE__ */ icon('receipt', () => <path d="M5.5 3h13v18l-2.2-1.5-2.1 1.5-2.2-1.5-2.2 1.5-2.1-1.5-2.2 1.5zM9 8h6M9 12h6M9 16h3.5" />);
