// The legacy REST paths of SPEC 4.0, each a GraphQL operation whose result takes the shapes of
// COMPAT.md (shapes.ts), mounted in groups; each route declares its OpenAPI operation beside its
// handler, and the document (openapi.ts) is put together from what they declared.
import type { Router } from '../http/router.ts';
import { mountCourseRoutes } from './course-routes.ts';
import { mountEntryRoutes } from './entry-routes.ts';
import { type LegacyPaths, type RestOptions, restKit } from './kit.ts';
import { mountPeopleRoutes } from './people-routes.ts';
import { mountStreamRoutes } from './stream-routes.ts';

export type { LegacyPaths, RestOptions } from './kit.ts';

/** Mounts every legacy path on `router`; answers their OpenAPI paths. */
export function mountRestRoutes(router: Router, options: RestOptions): LegacyPaths {
  const kit = restKit(router, options);
  mountStreamRoutes(kit);
  mountEntryRoutes(kit);
  mountPeopleRoutes(kit);
  mountCourseRoutes(kit);
  return kit.paths;
}
