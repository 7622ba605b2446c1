// Account health: the token as LinkedIn's introspection sees it (active, scopes, expiry), and for a Page
// whether the member still holds a posting role on it and the grant can post as a Page.
import type { AdapterDeps } from '../deps.ts';
import { failure, type AccountCredentials, type HealthReport, type Outcome } from '../types.ts';
import { fetchPageRoles } from './identity.ts';
import { isOrganizationUrn } from './info.ts';
import { introspect } from './oauth.ts';

export async function checkHealth(deps: AdapterDeps, account: AccountCredentials): Promise<Outcome<HealthReport>> {
  const checked = await introspect(deps, account.accessToken);
  if (!checked.ok) return checked;
  const token = checked.token;
  if (!token.active) return failure('auth_expired', `LinkedIn reports the token as ${token.status ?? 'inactive'}`, { platformCode: token.status ?? 'inactive' });
  const permissions = token.scopes.length > 0 ? token.scopes : account.scopes;
  const report: HealthReport = { permissions, expiresAt: token.expiresAt ?? account.expiresAt };

  if (isOrganizationUrn(account.accountId)) {
    if (!permissions.includes('w_organization_social')) {
      return failure('permission_missing', 'posting as a LinkedIn Page needs w_organization_social, which this grant lacks', { platformCode: 'w_organization_social' });
    }
    const roles = await fetchPageRoles(deps, account.accessToken, permissions);
    if (roles.ok) {
      const role = roles.pages.find((p) => p.urn === account.accountId)?.role;
      if (!role) {
        return failure('permission_missing', `${account.username} no longer lists this member as an administrator or content administrator`, { platformCode: 'NO_PAGE_ROLE' });
      }
      report.meta = { role };
    } else if (roles.category === 'auth_expired' || roles.category === 'permission_missing') {
      return roles;
    }
    // A transient failure to list roles does not make a working token unhealthy.
  }
  return { ok: true, ...report };
}
