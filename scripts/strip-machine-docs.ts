/**
 * A build-only Vite plugin: the statecharts' documentation (every `description` and the
 * `meta: { spec }` references, issue 14) stays out of the web app's bundle. Auditors read it in
 * the audit pack and developers in the inspector, which only development builds have; in
 * production it would only be bytes every page downloads (issue 12: /login's 130 kB budget, whose
 * sign-in and session charts alone carry some 4 kB of it). Only machines/**\/*.machine.ts files,
 * and only a `description` whose value is a string literal and a `meta` that holds nothing but
 * `spec`: the behaviour of a chart is untouched. `npm run dev`, the tests and the platform keep
 * the charts as written.
 */
import { transformAsync, type PluginObj, type types as t } from '@babel/core';
import type { Plugin } from 'vite';

const MACHINE_FILE = /[\\/]machines[\\/][^\\/]+[\\/][^\\/]+\.machine\.ts$/;

const keyName = (node: t.ObjectProperty): string | null => {
  if (node.computed) return null;
  if (node.key.type === 'Identifier') return node.key.name;
  if (node.key.type === 'StringLiteral') return node.key.value;
  return null;
};

const isText = (node: t.Node) => node.type === 'StringLiteral' || (node.type === 'TemplateLiteral' && node.expressions.length === 0);

const onlySpec = (node: t.Node) =>
  node.type === 'ObjectExpression' && node.properties.length > 0 && node.properties.every((p) => p.type === 'ObjectProperty' && keyName(p) === 'spec');

const stripDocs: PluginObj = {
  name: 'strip-machine-docs',
  visitor: {
    ObjectProperty(path) {
      const name = keyName(path.node);
      if ((name === 'description' && isText(path.node.value)) || (name === 'meta' && onlySpec(path.node.value))) path.remove();
    },
  },
};

export function stripMachineDocs(): Plugin {
  return {
    name: 'strip-machine-docs',
    apply: 'build',
    enforce: 'pre',
    async transform(code, id) {
      if (!MACHINE_FILE.test(id.split('?')[0] ?? id)) return null;
      const out = await transformAsync(code, {
        filename: id,
        babelrc: false,
        configFile: false,
        parserOpts: { plugins: ['typescript'] },
        plugins: [stripDocs],
        sourceMaps: true,
      });
      return out?.code ? { code: out.code, map: out.map ?? null } : null;
    },
  };
}
