// Pages (platforms.md 7.3): organizationAcls?q=roleAssignee (the caller's roles, paged) and the
// organizations lookup, by id or batch (?ids=List(1,2)). Both need rw_organization_admin or
// r_organization_admin.
import type { FastifyInstance } from 'fastify';
import { authenticate, requireScope, type LinkedInContext } from './context.ts';
import { illegal, notFound, sendRestError } from './envelope.ts';
import type { SandboxPage } from './store.ts';

type Query = Record<string, string | undefined>;
const ADMIN_SCOPES = ['rw_organization_admin', 'r_organization_admin'];

function organization(page: SandboxPage): Record<string, unknown> {
  return {
    id: Number(page.id),
    localizedName: page.name,
    vanityName: page.vanityName,
    // A media-asset URN, not a URL: clients must resolve it (they rarely do).
    logoV2: { original: `urn:li:digitalmediaAsset:logo-${page.id}`, cropped: `urn:li:digitalmediaAsset:logo-${page.id}-c` },
    primaryOrganizationType: 'NONE',
  };
}

/** The ids of a REST.li 2.0 `ids=List(1,2)` query, read from the raw URL. */
function listIds(url: string): string[] | null {
  const m = /[?&]ids=List\(([^)]*)\)/.exec(url);
  if (!m) return null;
  return m[1]!.split(',').map((s) => decodeURIComponent(s)).filter(Boolean);
}

export function registerOrgRoutes(app: FastifyInstance, ctx: LinkedInContext): void {
  app.get('/rest/organizationAcls', async (req, reply) => {
    const caller = authenticate(ctx, req, reply);
    if (!caller) return reply;
    if (!requireScope(req, reply, caller, ADMIN_SCOPES, 'organizationAcls.FINDER-roleAssignee')) return reply;
    const q = req.query as Query;
    if (q.q !== 'roleAssignee') return sendRestError(reply, illegal('Resource method could not be resolved from request parameters'));
    const start = Number(q.start ?? 0);
    const count = Number(q.count ?? 10);
    if (!Number.isInteger(start) || start < 0 || !Number.isInteger(count) || count < 1 || count > 100) {
      return sendRestError(reply, illegal('start must be ≥ 0 and count between 1 and 100'));
    }
    const all = caller.member.pages
      .filter((p) => !q.role || p.role === q.role)
      .filter(() => !q.state || q.state === 'APPROVED')
      .map((p) => ({ roleAssignee: caller.member.urn, role: p.role, state: 'APPROVED', organization: p.urn }));
    return { paging: { start, count, links: [], total: all.length }, elements: all.slice(start, start + count) };
  });

  app.get('/rest/organizations', async (req, reply) => {
    const caller = authenticate(ctx, req, reply);
    if (!caller) return reply;
    if (!requireScope(req, reply, caller, ADMIN_SCOPES, 'organizations.BATCH_GET')) return reply;
    const ids = listIds(req.url);
    if (!ids) return sendRestError(reply, illegal('ids must be a REST.li list: ids=List(1,2)'));
    const results: Record<string, unknown> = {};
    const errors: Record<string, unknown> = {};
    const statuses: Record<string, number> = {};
    for (const id of ids) {
      const page = caller.member.pages.find((p) => p.id === id);
      statuses[id] = page ? 200 : 403;
      if (page) results[id] = organization(page);
      else errors[id] = { status: 403, message: 'Member does not have permission to view this organization' };
    }
    return { results, statuses, errors };
  });

  app.get('/rest/organizations/:id', async (req, reply) => {
    const caller = authenticate(ctx, req, reply);
    if (!caller) return reply;
    if (!requireScope(req, reply, caller, ADMIN_SCOPES, 'organizations.GET')) return reply;
    const page = caller.member.pages.find((p) => p.id === (req.params as { id: string }).id);
    return page ? organization(page) : sendRestError(reply, notFound());
  });
}
