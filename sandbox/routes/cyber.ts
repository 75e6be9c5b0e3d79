import { CYBER_STATUSES, MESSAGE } from '../../shared/api/contract-choices.js';
import { CyberListQuery, type CyberListItem } from '../../shared/api/cyber.js';
import { requireUser, type Handler, type RequestContext, type SandboxServices } from '../context.js';
import { parseQuery } from '../http/body.js';
import { ApiError } from '../http/envelope.js';
import { json } from '../http/reply.js';
import type { CyberEntry } from '../state/model.js';
import { statusFilter } from './capacity.js';

function listItem(entry: CyberEntry): CyberListItem {
  const details = entry.view.policyDetails;
  return {
    cidrId: details.cidrId,
    policyName: details.policyName,
    policyStatus: details.policyStatus,
    createdDate: entry.view.dates.createdDate,
    customerId: entry.customerId,
    regionCode: entry.view.regionSettings.primary.regionCode,
    terminationTriggered: entry.terminationEventId !== null,
  };
}

export const listCyberPolicies: Handler = (req, services) => {
  const user = requireUser(req);
  const cidExt = req.params['cid_ext'] ?? '';
  // Another user's customer answers exactly like a missing one.
  if (!user.customers.some((customer) => customer.cidExt === cidExt)) throw new ApiError(404, MESSAGE.customerNotFound(cidExt));
  const query = parseQuery(req.query, CyberListQuery);
  const status = statusFilter(query.status, CYBER_STATUSES);
  const { items, total } = services.store.listCyber(cidExt, status, query.policyName, query);
  return json(200, { data: items.map(listItem), page: query.page, pageSize: query.pageSize, total });
};

function cyberPolicyOf(req: RequestContext, services: SandboxServices): CyberEntry {
  const cidrId = req.params['cidr_id'] ?? '';
  const entry = services.store.cyberOf(requireUser(req).username, cidrId);
  if (!entry) throw new ApiError(404, MESSAGE.policyNotFound(cidrId));
  return entry;
}

export const viewCyberPolicy: Handler = (req, services) => json(200, cyberPolicyOf(req, services).view);

export const terminateCyberEvent: Handler = async (req, services) => {
  const entry = cyberPolicyOf(req, services);
  // Decided synchronously, before any await: concurrent calls cannot both create.
  const outcome = services.store.terminate(entry, req.nowMs);
  if (!outcome.created) return json(200, { code: 200, data: { id: null }, message: MESSAGE.terminationAlready });
  await services.persist();
  return json(201, { code: 201, data: { id: outcome.id }, message: MESSAGE.terminationCreated });
};
