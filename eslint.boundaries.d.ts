// Types of eslint.boundaries.js for scripts/lint-boundaries.test.ts.
export declare const MESSAGES: Record<
  'crossModule' | 'crossFeature' | 'clientServer' | 'clientTests' | 'serverClient' | 'contractsClient' | 'uiDomain' | 'database',
  string
>;
export declare function boundaryZones(
  root: string,
): { target: string | string[]; from: string | string[]; except?: string[]; message: string }[];
export declare function boundaryConfig(root: string): unknown[];
