/**
 * Lays a machine out with elkjs (layered, left to right, nested states as nested boxes, edges
 * across levels routed by ELK itself) and draws the result as a standalone SVG: a box per state
 * (compound and parallel states hold their children, parallel regions dashed, final states with
 * a double border), a dot and an arrow to each initial state, an edge per transition target with
 * one label per transition (`EVENT` and `[guard]`, `after <delay>`); a transition without a
 * target (actions only) is a loop on its state. The SVG has no style of its own: audit.css styles
 * it in the page (the platform's Content-Security-Policy allows no inline style), and the
 * standalone .svg file links the same stylesheet.
 */
import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkExtendedEdge, ElkLabel, ElkNode } from 'elkjs/lib/elk-api.js';
import { edgeLabelLines, type AuditMachine, type AuditState, type AuditTransition } from './model.ts';

const FONT_SIZE = 12;
const LABEL_FONT_SIZE = 11;
/** a generous average advance per character of the sans-serif faces at these sizes */
const CHAR_W = 7.2;
const LABEL_CHAR_W = 6.6;
const LINE_H = 14;
const TITLE_H = 26;
const INITIAL_R = 6;

export interface LaidOut {
  svg: string;
  width: number;
  height: number;
  /** how many state boxes and transition labels were drawn (the tests count them) */
  boxes: number;
  labels: number;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** ELK ids: any string, but kept readable and unique */
const nodeId = (id: string) => `s:${id}`;
const initialId = (id: string) => `i:${id}`;

function titleOf(s: AuditState): string {
  return s.kind === 'parallel' ? `${s.key} (parallel)` : s.key;
}

function buildGraph(model: AuditMachine): ElkNode {
  const children = new Map<string | null, AuditState[]>();
  for (const s of model.states) children.set(s.parentId, [...(children.get(s.parentId) ?? []), s]);

  const toNode = (s: AuditState): ElkNode => {
    const kids = children.get(s.id) ?? [];
    const title = titleOf(s);
    if (kids.length === 0) {
      return { id: nodeId(s.id), width: Math.max(64, Math.ceil(title.length * CHAR_W) + 28), height: 34 };
    }
    const nested: ElkNode[] = kids.map(toNode);
    if (s.kind === 'compound' && s.initialIds.length) nested.unshift({ id: initialId(s.id), width: INITIAL_R * 2, height: INITIAL_R * 2 });
    return {
      id: nodeId(s.id),
      children: nested,
      layoutOptions: {
        'elk.padding': `[top=${TITLE_H + 12},left=14,bottom=14,right=14]`,
        'elk.nodeSize.constraints': 'MINIMUM_SIZE',
        'elk.nodeSize.minimum': `(${Math.ceil(title.length * CHAR_W) + 32}, 60)`,
      },
    };
  };

  const root = model.states.find((s) => s.parentId === null);
  if (!root) throw new Error('machine without a root state');
  const edges: ElkExtendedEdge[] = [];
  for (const s of model.states) {
    s.initialIds.forEach((target, i) => edges.push({ id: `init:${s.id}:${i}`, sources: [initialId(s.id)], targets: [nodeId(target)] }));
  }
  model.transitions.forEach((t, i) => {
    const targets = t.targetIds.length ? t.targetIds : [t.sourceId];
    targets.forEach((target, j) => {
      const lines = edgeLabelLines(t);
      const labels: ElkLabel[] =
        j === 0
          ? [{ id: `label:${i}`, text: lines.join('\n'), width: Math.ceil(Math.max(...lines.map((l) => l.length)) * LABEL_CHAR_W) + 8, height: lines.length * LINE_H + 4 }]
          : [];
      edges.push({ id: `t:${i}:${j}`, sources: [nodeId(t.sourceId)], targets: [nodeId(target)], labels });
    });
  });
  return {
    id: 'graph',
    layoutOptions: {
      'elk.algorithm': 'layered',
      // left to right: a state's many outcomes (the verification-status chart's fan of guards)
      // stack up in a column, their labels beside their edges, and a page scrolls down, not across
      'elk.direction': 'RIGHT',
      'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
      'elk.json.shapeCoords': 'ROOT',
      'elk.json.edgeCoords': 'ROOT',
      'elk.spacing.nodeNode': '28',
      'elk.layered.spacing.nodeNodeBetweenLayers': '36',
      'elk.spacing.edgeLabel': '3',
      'elk.spacing.edgeNode': '14',
      'elk.layered.spacing.edgeNodeBetweenLayers': '14',
      'elk.layered.nodePlacement.strategy': 'NETWORK_SIMPLEX',
      // the states in the order the machine lists them, as far as the layers allow
      'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
      // a label sits on its own edge, so the eye follows the line to its name
      'elk.edgeLabels.inline': 'true',
      'elk.padding': '[top=12,left=12,bottom=12,right=12]',
    },
    children: [toNode(root)],
    edges,
  };
}

const elk = new ELK();

export async function layoutMachine(model: AuditMachine, title: string): Promise<LaidOut> {
  const graph = await elk.layout(buildGraph(model));
  const states = new Map(model.states.map((s) => [nodeId(s.id), s]));
  const transitionsByIndex = model.transitions;
  const shapes: string[] = [];
  const edgeParts: string[] = [];
  const labelParts: string[] = [];
  let boxes = 0;
  let labels = 0;

  const drawNode = (n: ElkNode) => {
    const x = n.x ?? 0;
    const y = n.y ?? 0;
    const w = n.width ?? 0;
    const h = n.height ?? 0;
    if (n.id.startsWith('i:')) {
      shapes.push(`<circle class="initial" cx="${x + w / 2}" cy="${y + h / 2}" r="${INITIAL_R}"><title>initial state</title></circle>`);
      return;
    }
    const s = states.get(n.id);
    if (!s) return;
    boxes++;
    const hasKids = (n.children ?? []).length > 0;
    const classes = ['state', `kind-${s.kind}`, s.region ? 'region' : '', hasKids ? 'container' : 'leaf'].filter(Boolean).join(' ');
    const tip = `${s.path}${s.description ? `: ${s.description}` : ''}`;
    const parts = [`<g class="${classes}" data-state-id="${esc(s.id)}"><title>${esc(tip)}</title>`];
    parts.push(`<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${hasKids ? 8 : 6}"/>`);
    if (s.kind === 'final') parts.push(`<rect class="inner" x="${x + 3}" y="${y + 3}" width="${w - 6}" height="${h - 6}" rx="4"/>`);
    if (hasKids) {
      parts.push(`<line class="title-rule" x1="${x}" y1="${y + TITLE_H}" x2="${x + w}" y2="${y + TITLE_H}"/>`);
      parts.push(`<text class="title" x="${x + 10}" y="${y + 17}" font-size="${FONT_SIZE}">${esc(titleOf(s))}</text>`);
    } else {
      parts.push(`<text x="${x + w / 2}" y="${y + h / 2 + 4}" text-anchor="middle" font-size="${FONT_SIZE}">${esc(titleOf(s))}</text>`);
    }
    parts.push('</g>');
    shapes.push(parts.join(''));
    for (const child of n.children ?? []) drawNode(child);
  };
  for (const child of graph.children ?? []) drawNode(child);

  for (const e of graph.edges ?? []) {
    const points = (e.sections ?? []).flatMap((sec) => [sec.startPoint, ...(sec.bendPoints ?? []), sec.endPoint]);
    if (points.length < 2) continue;
    const d = points.map((p, i) => `${i ? 'L' : 'M'}${p.x.toFixed(1)} ${p.y.toFixed(1)}`).join(' ');
    const isInit = e.id.startsWith('init:');
    const t: AuditTransition | undefined = isInit ? undefined : transitionsByIndex[Number(e.id.split(':')[1])];
    edgeParts.push(`<path class="edge${isInit ? ' init' : ''}${t && t.targetIds.length === 0 ? ' internal' : ''}" d="${d}" marker-end="url(#arrow)"/>`);
    for (const label of e.labels ?? []) {
      if (!t) continue;
      labels++;
      const lx = label.x ?? 0;
      const ly = label.y ?? 0;
      const lines = (label.text ?? '').split('\n');
      const tspans = lines
        .map((line, i) => `<tspan x="${lx + (label.width ?? 0) / 2}" y="${ly + 2 + LINE_H * (i + 1) - 3}"${i > 0 ? ' class="guard"' : ''}>${esc(line)}</tspan>`)
        .join('');
      labelParts.push(
        `<g class="edge-label" data-transition="${esc(t.key)}"><title>${esc(t.description ?? `${t.event}${t.guard ? ` [${t.guard}]` : ''}`)}</title><rect x="${lx}" y="${ly}" width="${label.width}" height="${label.height}" rx="3"/><text text-anchor="middle" font-size="${LABEL_FONT_SIZE}">${tspans}</text></g>`,
      );
    }
  }

  const width = Math.ceil(graph.width ?? 0);
  const height = Math.ceil(graph.height ?? 0);
  const svg = [
    `<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-labelledby="chart-title">`,
    `<title id="chart-title">${esc(title)}: statechart with ${model.states.length} states and ${model.transitions.length} transitions</title>`,
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 z" class="arrowhead"/></marker></defs>',
    `<g class="states">${shapes.join('')}</g>`,
    `<g class="edges">${edgeParts.join('')}</g>`,
    `<g class="labels">${labelParts.join('')}</g>`,
    '</svg>',
  ].join('\n');
  return { svg, width, height, boxes, labels };
}

/** The SVG as a file of its own, styled by the pack's stylesheet beside it. */
export function standaloneSvg(svg: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<?xml-stylesheet type="text/css" href="audit.css"?>\n${svg}\n`;
}
