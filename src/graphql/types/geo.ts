// A place on Earth as GraphQL gives it: entries' positions and routes' ends.
import { builder } from '../builder.ts';

export interface GeoPoint {
  lat: number;
  lon: number;
}

export const GeoPointRef = builder.objectRef<GeoPoint>('GeoPoint').implement({
  description: 'A GeoJSON point.',
  fields: (t) => ({
    type: t.string({ description: 'GeoJSON’s type: always `Point`.', resolve: () => 'Point' }),
    coordinates: t.floatList({ description: 'GeoJSON order: `[longitude, latitude]`.', resolve: (p) => [p.lon, p.lat] }),
    latitude: t.float({ description: 'Degrees north (WGS 84).', resolve: (p) => p.lat }),
    longitude: t.float({ description: 'Degrees east (WGS 84).', resolve: (p) => p.lon }),
  }),
});
