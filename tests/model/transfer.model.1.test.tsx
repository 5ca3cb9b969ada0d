// The transfer chart's paths, shard 1 of 2 (tests/model/transfer-model.tsx).
import { describeTransferPaths } from './transfer-model.tsx';

describeTransferPaths(0, 2);
