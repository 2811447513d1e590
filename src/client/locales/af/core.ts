// The Afrikaans namespaces every page needs, in one file for the browser (bundles.ts).
import auth from './auth.json';
import common from './common.json';
import setup from './setup.json';
import validation from './validation.json';

export default { common, validation, auth, setup };
