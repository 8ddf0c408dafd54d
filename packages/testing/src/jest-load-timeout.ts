// Every suite's per-test timeout (jest.preset.js), stretched by the machine's load when the file starts
// (@risk/time-budget scaledByLoad):
// jest's timeout is the hang detector behind waitFor's, so it must stretch as the waits inside the test do. A test
// that passes its own timeout (the third argument of `it`, or `jest.setTimeout` in the file) scales it with
// `scaledByLoad` itself.
import { scaledByLoad } from '@risk/time-budget';

declare const TEST_TIMEOUT_MS: number | undefined;

jest.setTimeout(scaledByLoad(typeof TEST_TIMEOUT_MS === 'number' ? TEST_TIMEOUT_MS : 30_000));
