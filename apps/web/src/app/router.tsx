import type { RouteObject } from 'react-router';
import { adminRoutes } from '../areas/admin/routes';
import { expertRoutes } from '../areas/expert/routes';
import { liveRoutes } from '../areas/live/routes';
import { routeTree } from './route-tree';

/**
 * The whole route tree, console areas included: what tests render and walk. The app itself starts
 * without the console areas and adds each when first visited (./create-router.ts).
 */
export const routes: RouteObject[] = routeTree([...adminRoutes, ...expertRoutes, ...liveRoutes]);
