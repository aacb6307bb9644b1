export declare const TEST_DEADLINE_MS: number;
export declare const WAIT_DEADLINE_MS: number;
export declare const RUN_DEADLINE_MS: number;
