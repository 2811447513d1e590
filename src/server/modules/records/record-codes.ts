// A coded input's code, checked against the kind's catalogue (catalogues/<kind>.tsv, modules/codes): the entry when
// the catalogue holds it, a 400 naming the field when it does not (a system the kind does not use, or a code the
// catalogue lacks), and null for free text (uncoded). The records service stores the entry's display beside the code.
import { CODE_CHECK_MESSAGES } from '../../../contracts/codes';
import { kindContract, type CodedKind, type RecordKind } from '../../../contracts/kinds';
import { validationFailed } from '../../errors/app-error';
import { checkCode } from '../codes/codes.service';
import type { CodeEntry } from './kinds/server-kind';

export function codeEntryOf(kind: RecordKind, input: { code?: string | null; codeSystem?: string | null }): CodeEntry | null {
  if (!kindContract(kind).coded || !input.code || !input.codeSystem) return null;
  const found = checkCode(kind as CodedKind, { code: input.code, codeSystem: input.codeSystem });
  if (!found.ok) {
    const path = found.reason === 'unknown-system' ? 'codeSystem' : 'code';
    throw validationFailed(
      [{ path, message: CODE_CHECK_MESSAGES[found.reason] }],
      `Unknown code ${input.codeSystem}|${input.code} for ${kind}`,
    );
  }
  const { code, codeSystem, display, ...extra } = found.entry;
  return { code, codeSystem, display, extra };
}
