/**
 * What `npm run mutation` does not mutate in the machines (stryker.config.mjs `ignorers`): the
 * parts that carry no run-time behaviour, so a machine's score counts only the changes a test
 * could notice.
 * - `description` and `meta` (the text and the specification sections of the audit pack): the
 *   description test checks they exist; an emptied one is not a behaviour the model tests watch.
 * - `types` of `setup()`: TypeScript's type markers, empty objects at run time.
 * - `actors` of `setup()`: the placeholder actors (they throw or never answer) that the app and the
 *   tests replace with `.provide()`; the real ones are in the features and have their own tests.
 */
import { PluginKind, declareValuePlugin } from '@stryker-mutator/api/plugin';

const keyName = (node) => (node.key.type === 'Identifier' ? node.key.name : node.key.type === 'StringLiteral' ? node.key.value : null);

function inSetupCall(objectPath) {
  const call = objectPath?.parentPath;
  return Boolean(call?.isCallExpression() && call.node.callee.type === 'Identifier' && call.node.callee.name === 'setup');
}

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'machine-documentation', {
    shouldIgnore(path) {
      if (!path.isObjectProperty()) return undefined;
      const key = keyName(path.node);
      if (key === 'description' || key === 'meta') return 'the audit pack’s text and specification references, not behaviour';
      if ((key === 'types' || key === 'actors') && inSetupCall(path.parentPath)) return key === 'types' ? 'type markers only' : 'placeholder actors the app and the tests replace';
      return undefined;
    },
  }),
];
