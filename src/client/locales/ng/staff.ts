// The Oshiwambo namespaces of the signed-in staff dashboard, in one file for the browser (bundles.ts).
import audit from './audit.json';
import dashboard from './dashboard.json';
import patients from './patients.json';
import profile from './profile.json';
import search from './search.json';
import security from './security.json';
import users from './users.json';

export default { dashboard, profile, users, audit, search, patients, security };
