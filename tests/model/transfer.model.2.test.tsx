// The transfer chart's paths, shard 2 of 2 (tests/model/transfer-model.tsx).
import { describeTransferPaths } from './transfer-model.tsx';

describeTransferPaths(1, 2);
