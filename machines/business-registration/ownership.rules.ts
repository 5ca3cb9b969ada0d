// Moved to api/ownership.ts (the platform and the wizard share it; server/ imports api/ only).
// TEMPORARY: kept while the wizard's files move their imports; removed at integration.
export * from '../../api/ownership.ts';
