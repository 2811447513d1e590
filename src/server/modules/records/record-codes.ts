// A coded input's code, checked against the kind's catalogue (catalogues/, modules/codes): the entry when the
// catalogue holds it, a 400 naming the field when it does not (an unknown code, or a code of another system), and
// null for free text (uncoded). The records service stores the entry's display beside the code.
import { kindContract, type RecordKind } from '../../../contracts/kinds';
import { CATALOGUE_SYSTEMS, type CatalogueName } from '../../../contracts/kinds/coded';
import { validationFailed } from '../../errors/app-error';
import { checkCode } from '../codes/codes.service';
import type { CodeEntry } from './kinds/server-kind';

export function codeEntryOf(kind: RecordKind, input: { code?: string | null; codeSystem?: string | null }): CodeEntry | null {
  const coded = kindContract(kind).coded;
  if (!coded || !input.code || !input.codeSystem) return null;
  const catalogue = coded.catalogue as CatalogueName;
  if (!CATALOGUE_SYSTEMS[catalogue].includes(input.codeSystem))
    throw validationFailed([{ path: 'codeSystem', message: 'validation:codeSystemWrong' }], `Codes of ${kind} come from ${CATALOGUE_SYSTEMS[catalogue].join(' or ')}`);
  const found = checkCode(catalogue, { code: input.code, codeSystem: input.codeSystem });
  if (!found.ok) throw validationFailed([{ path: 'code', message: 'validation:codeUnknown' }], `Unknown code ${input.code} in ${input.codeSystem}`);
  const { code, codeSystem, display, ...extra } = found.entry;
  return { code, codeSystem, display, extra };
}
