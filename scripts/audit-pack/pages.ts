/**
 * The audit pack's pages: static HTML (no script), relative links only, one stylesheet
 * (audit.css), so the pack opens from the file system as well as from the platform's /audit/.
 */
import type { AuditMachine, AuditState, AuditTransition } from './model.ts';
import type { ModelCoverageFile, MutationResult } from './reports.ts';

export const AREAS = ['Sign-in and session', 'Profile and settings', 'Money movement', 'Business', 'Contracts and support', 'Verification'] as const;
export type Area = (typeof AREAS)[number] | 'Other';

/** Which area each machine of scripts/diagrams.ts's list belongs to (a machine not named here is listed under Other). */
export const AREA_OF: Record<string, Area> = {
  session: 'Sign-in and session',
  login: 'Sign-in and session',
  'start-page': 'Sign-in and session',
  sso: 'Sign-in and session',
  registration: 'Sign-in and session',
  'business-registration': 'Business',
  'business-decision': 'Business',
  'business-self-certification': 'Business',
  'personal-self-certification': 'Verification',
  activation: 'Sign-in and session',
  'account-recovery': 'Sign-in and session',
  'two-step': 'Profile and settings',
  'recovery-codes': 'Profile and settings',
  'password-change': 'Profile and settings',
  'link-device': 'Profile and settings',
  'device-companion': 'Profile and settings',
  'code-confirm': 'Profile and settings',
  'address-edit': 'Profile and settings',
  transfer: 'Money movement',
  'mass-transfer': 'Money movement',
  'global-pay-batch': 'Money movement',
  'global-payee': 'Money movement',
  approval: 'Money movement',
  'history-export': 'Money movement',
  'open-account': 'Money movement',
  'confirm-action': 'Money movement',
  'card-secret': 'Money movement',
  'card-pin-change': 'Money movement',
  'card-activation': 'Money movement',
  'card-application': 'Money movement',
  'verification-status': 'Verification',
  'document-upload': 'Verification',
  'admin-review': 'Verification',
  'e-signature': 'Verification',
  contract: 'Contracts and support',
  'contract-create': 'Contracts and support',
  ticket: 'Contracts and support',
  'new-ticket': 'Contracts and support',
};

export interface MachinePage {
  file: string;
  title: string;
  source: string;
  model: AuditMachine;
  svg: string;
  coverage: ModelCoverageFile | null;
  mutation: MutationResult | null;
  /** reports/mutation/mutation.json exists (a machine missing from it is "not in the report") */
  mutationRun: boolean;
}

export interface Counts {
  states: number;
  transitions: number;
  /** null: the model tests have not written this machine's coverage file */
  covered: number | null;
  missingDescriptions: number;
}

const DASH = '—';
export const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const code = (s: string) => `<code>${esc(s)}</code>`;

export function countsOf(page: Pick<MachinePage, 'model' | 'coverage'>): Counts {
  const { model, coverage } = page;
  return {
    states: model.states.length,
    transitions: model.transitions.length,
    covered: coverage ? model.transitions.filter((t) => (coverage.transitions[t.key] ?? []).length > 0).length : null,
    missingDescriptions: model.states.filter((s) => !s.description).length + model.transitions.filter((t) => !t.description).length,
  };
}

export function mutationText(page: Pick<MachinePage, 'mutation' | 'mutationRun'>): string {
  if (!page.mutationRun) return 'not run';
  if (!page.mutation) return 'not in the report';
  if (page.mutation.score === null) return 'no mutants';
  return `${page.mutation.score.toFixed(1)} %`;
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<link rel="stylesheet" href="audit.css">
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top"><a href="index.html">Statechart audit pack</a></header>
<main id="main">
${body}
</main>
</body>
</html>
`;
}

function specList(spec: string[]): string {
  return spec.length ? spec.map((s) => `<span class="spec">${esc(s)}</span>`).join(' ') : DASH;
}

export function renderIndex(pages: MachinePage[], generatedAt: string): string {
  const groups = new Map<Area, MachinePage[]>();
  for (const page of pages) {
    const area = AREA_OF[page.file] ?? 'Other';
    groups.set(area, [...(groups.get(area) ?? []), page]);
  }
  const sections = [...AREAS, 'Other' as const]
    .filter((area) => groups.has(area))
    .map((area) => {
      const rows = (groups.get(area) ?? [])
        .map((page) => {
          const c = countsOf(page);
          const covered = c.covered === null ? 'not run' : `${c.covered} of ${c.transitions}`;
          return `<tr><th scope="row"><a href="${esc(page.file)}.html">${esc(page.title)}</a></th><td>${specList(page.model.spec)}</td><td class="num">${c.states}</td><td class="num">${c.transitions}</td><td class="num${c.covered !== null && c.covered < c.transitions ? ' warn' : ''}">${covered}</td><td class="num${c.missingDescriptions ? ' warn' : ''}">${c.missingDescriptions}</td><td class="num">${esc(mutationText(page))}</td></tr>`;
        })
        .join('\n');
      return `<section aria-labelledby="area-${slug(area)}">
<h2 id="area-${slug(area)}">${esc(area)}</h2>
<div class="scroll" tabindex="0" role="region" aria-label="${esc(area)}: machines table">
<table class="machines">
<caption>${esc(area)}: machines with their counts</caption>
<thead><tr><th scope="col">Machine</th><th scope="col">Specification</th><th scope="col">States</th><th scope="col">Transitions</th><th scope="col">Covered by model tests</th><th scope="col">Missing descriptions</th><th scope="col">Mutation score</th></tr></thead>
<tbody>
${rows}
</tbody>
</table></div>
</section>`;
    })
    .join('\n');
  return layout(
    'Statechart audit pack',
    `<h1>Statechart audit pack</h1>
<p class="lead">Every flow of the product is a statechart: the app runs exactly these machines. Each page shows one machine as a diagram, every state and transition with its description and the specification section it implements, and which model-based test paths take each transition.</p>
<p class="meta">Generated ${esc(generatedAt)} by <code>npm run audit-pack</code>. Documents: 1 = platform, sign-in and profile; 2 = money movement; 3 = business, tax, contracts, support.</p>
${sections}
${legend()}`,
  );
}

function legend(): string {
  return `<section aria-labelledby="how-to-read">
<h2 id="how-to-read">How to read the pack</h2>
<ul>
<li><strong>Diagram</strong>: a box per state; a state holding others is a large box around them, a parallel state's regions (all active at once) are dashed boxes side by side; a black dot points to the state a box starts in; a final state has a double border.</li>
<li><strong>Edges</strong> are labelled with the event, then the <em>[guard]</em> (the condition that must hold) on a second line; <code>always</code> or a guard alone is a transition taken as soon as its guard holds; <code>after d</code> a delay; <code>done x</code> / <code>error x</code> the answer of the call <code>x</code>. A dashed loop changes data without leaving the state.</li>
<li><strong>Covered</strong>: the model-based tests generate paths through the chart and play each one through the real screens; a transition is covered when at least one path takes it, and the table names those paths: the test file whose coverage check replayed the path on the machine, the path's input in brackets, then its events (<code>done.x</code> / <code>error.x</code> the answer of the call <code>x</code>). "not run" means the model tests have not been run where this pack was built.</li>
<li><strong>Mutation score</strong>: the share of deliberate small faults in the machine's code that the tests detect (StrykerJS, <code>npm run mutation</code>); surviving mutants are listed on the machine's page.</li>
<li><strong>—</strong> marks a description or specification reference the machine does not give yet; such gaps are counted on this page.</li>
</ul>
</section>`;
}

const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

function stateRow(s: AuditState, byId: Map<string, AuditState>): string {
  const kind = `${s.kind}${s.region ? ' (region)' : ''}`;
  const initial = s.initialIds.length ? `starts in ${s.initialIds.map((id) => code(byId.get(id)?.path ?? id)).join(', ')}` : '';
  const extra = [initial, s.invokes.length ? `calls ${s.invokes.map(code).join(', ')}` : '', s.entry.length ? `on entry ${s.entry.map(code).join(', ')}` : '', s.exit.length ? `on exit ${s.exit.map(code).join(', ')}` : '']
    .filter(Boolean)
    .join('; ');
  return `<tr id="state-${esc(s.id)}"><th scope="row" class="depth-${Math.min(s.depth, 6)}">${code(s.path)}</th><td>${esc(kind)}</td><td${s.description ? '' : ' class="missing"'}>${s.description ? esc(s.description) : DASH}</td><td>${specList(s.spec)}</td><td>${extra || DASH}</td></tr>`;
}

function coverageCell(t: AuditTransition, coverage: ModelCoverageFile | null): string {
  if (!coverage) return '<td class="muted">not run</td>';
  const paths = coverage.transitions[t.key] ?? [];
  if (paths.length === 0) return '<td class="missing">not covered</td>';
  const first = paths.slice(0, 2).map((p) => `<li>${esc(p)}</li>`).join('');
  const more = paths.length > 2 ? `<details><summary>${paths.length - 2} more</summary><ul>${paths.slice(2).map((p) => `<li>${esc(p)}</li>`).join('')}</ul></details>` : '';
  return `<td><span class="count">${paths.length} path${paths.length === 1 ? '' : 's'}</span><ul class="paths">${first}</ul>${more}</td>`;
}

function transitionRow(t: AuditTransition, byId: Map<string, AuditState>, coverage: ModelCoverageFile | null): string {
  const source = byId.get(t.sourceId)?.path ?? t.sourceId;
  const targets = t.targetIds.length ? t.targetIds.map((id) => code(byId.get(id)?.path ?? id)).join(', ') : '<span class="muted">stays (actions only)</span>';
  const event = t.delay !== null ? `after ${t.delay}${/^\d+$/.test(t.delay) ? ' ms' : ''}` : t.event;
  return `<tr id="t-${esc(t.key)}"><td>${code(source)}</td><td>${code(event)}</td><td>${t.guard ? code(t.guard) : DASH}</td><td>${targets}</td><td>${t.actions.length ? t.actions.map(code).join(', ') : DASH}</td><td${t.description ? '' : ' class="missing"'}>${t.description ? esc(t.description) : DASH}${t.spec.length ? ` ${specList(t.spec)}` : ''}</td>${coverageCell(t, coverage)}</tr>`;
}

/** Diagrams up to this wide are scaled down to the page's width; wider ones scroll at full size. */
const FIT_WIDTH = 1600;
const svgWidth = (svg: string) => Number(/width="(\d+)"/.exec(svg)?.[1] ?? 0);

export function renderMachinePage(page: MachinePage): string {
  const { model, coverage } = page;
  const byId = new Map(model.states.map((s) => [s.id, s]));
  const c = countsOf(page);
  const narrower = model.states.filter((s) => s.parentId !== null && s.spec.length);
  const spec = `<section aria-labelledby="spec"><h2 id="spec">Specification</h2>
<p>The machine implements ${model.spec.length ? specList(model.spec) : `${DASH} (no sections named in its <code>meta.spec</code> yet)`}.</p>
${narrower.length ? `<ul>${narrower.map((s) => `<li>${code(s.path)}: ${specList(s.spec)}</li>`).join('')}</ul>` : ''}
</section>`;
  const mutation = page.mutation;
  const mutants = `<section aria-labelledby="mutants"><h2 id="mutants">Mutation testing</h2>
<p>Score: <strong>${esc(mutationText(page))}</strong>${mutation && mutation.score !== null ? ` (${mutation.killed} killed, ${mutation.timeout} timed out, ${mutation.survived} survived, ${mutation.noCoverage} without coverage, of ${mutation.total} mutants${mutation.ignored ? `; ${mutation.ignored} left unmutated: descriptions, type markers, placeholder actors` : ''})` : ''}.</p>
${
  mutation && mutation.surviving.length
    ? `<div class="scroll" tabindex="0" role="region" aria-label="Surviving mutants table"><table class="compact"><caption>Surviving mutants of ${code(page.source)}</caption><thead><tr><th scope="col">Line</th><th scope="col">Mutator</th><th scope="col">Status</th><th scope="col">Replacement</th></tr></thead><tbody>${mutation.surviving
        .map((m) => `<tr><td class="num">${m.location.start.line}:${m.location.start.column}</td><td>${esc(m.mutatorName)}</td><td>${esc(m.status)}</td><td>${m.replacement !== undefined ? code(m.replacement) : DASH}</td></tr>`)
        .join('')}</tbody></table></div>`
    : ''
}
</section>`;
  const covered = c.covered === null ? 'model tests not run' : `${c.covered} of ${c.transitions} transitions covered by model tests`;
  return layout(
    `${page.title}: statechart`,
    `<nav aria-label="Breadcrumb" class="crumbs"><a href="index.html">All machines</a> › ${esc(AREA_OF[page.file] ?? 'Other')}</nav>
<h1>${esc(page.title)}</h1>
<p class="meta">Source <code>${esc(page.source)}</code> · ${c.states} states · ${c.transitions} transitions · ${esc(covered)} · ${c.missingDescriptions} missing descriptions</p>
${model.states[0]?.description ? `<p class="lead">${esc(model.states[0].description)}</p>` : ''}
${spec}
<section aria-labelledby="diagram"><h2 id="diagram">Diagram</h2>
<figure class="chart-frame${svgWidth(page.svg) <= FIT_WIDTH ? ' fit' : ''}" tabindex="0" aria-labelledby="diagram">
${page.svg}
<figcaption>Laid out with elkjs from the machine definition. <a href="${esc(page.file)}.svg">Open the diagram alone</a>; the tables below give the same chart as text.</figcaption>
</figure>
</section>
<section aria-labelledby="states"><h2 id="states">States</h2>
<div class="scroll" tabindex="0" role="region" aria-label="States table">
<table>
<caption>The ${c.states} states of ${esc(page.title)}, nested states under their parent</caption>
<thead><tr><th scope="col">State</th><th scope="col">Type</th><th scope="col">Description</th><th scope="col">Specification</th><th scope="col">Starts, calls, actions</th></tr></thead>
<tbody>
${model.states.map((s) => stateRow(s, byId)).join('\n')}
</tbody>
</table></div>
</section>
<section aria-labelledby="transitions"><h2 id="transitions">Transitions</h2>
<div class="scroll" tabindex="0" role="region" aria-label="Transitions table">
<table>
<caption>The ${c.transitions} transitions of ${esc(page.title)}, in the order the machine tries them</caption>
<thead><tr><th scope="col">From</th><th scope="col">Event</th><th scope="col">Guard</th><th scope="col">To</th><th scope="col">Actions</th><th scope="col">Description</th><th scope="col">Covered by model-test paths</th></tr></thead>
<tbody>
${model.transitions.map((t) => transitionRow(t, byId, coverage)).join('\n')}
</tbody>
</table></div>
</section>
${mutants}`,
  );
}
