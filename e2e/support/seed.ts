import { DEMO_LOGINS } from "../../functions/src/features/seed/seed.service";

const [operator, admin, attendant] = DEMO_LOGINS as [typeof DEMO_LOGINS[0], typeof DEMO_LOGINS[0], typeof DEMO_LOGINS[0]];
/** The seeded demo logins (the same ones `npm start` prints). */
export const LOGINS = { operator, admin, attendant };
