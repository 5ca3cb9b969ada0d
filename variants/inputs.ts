/**
 * Every variant's data, by id. The platform and the tests read all of them; a web build bundles
 * only its own (vite.config.ts replaces this module with the active variant's entry).
 */
import { wallet } from './wallet.ts';
import { bank } from './bank.ts';
import { payments } from './payments.ts';
import { ltAmber } from './lt-amber.ts';
import { ltNeris } from './lt-neris.ts';
import { ukEmoney } from './uk-emoney.ts';

export const variantInputs = { wallet, bank, payments, 'lt-amber': ltAmber, 'lt-neris': ltNeris, 'uk-emoney': ukEmoney } as const;
