import { notFoundRoutes } from "@/lib/api/not-found";

export const dynamic = "force-dynamic";
// Any method on an unknown path → 404 problem+json
export const { GET, POST, PUT, PATCH, DELETE, HEAD } = notFoundRoutes;
