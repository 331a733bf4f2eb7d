import type { Feature } from '../feature.ts';
import { dashboardRoutes } from './routes.ts';

/** The dashboard's static files at `/` (with its security headers). */
export function createDashboard(deps: { publicUrl: string }): Feature {
  return { routes: (app) => dashboardRoutes(app, { publicUrl: deps.publicUrl }) };
}
