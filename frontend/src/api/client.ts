// Typed client for the REST API under /api/ (docs/architecture.md): one group of endpoints per resource, all
// sending through the one request helper (http.ts), which carries the session cookie and the CSRF token.

import { httpRequest, type HttpOptions } from "./http";
import { authApi, type AuthApi } from "./endpoints/auth";
import { conversationsApi, type ConversationsApi } from "./endpoints/conversations";
import { runsApi, type RunsApi } from "./endpoints/runs";
import { tabsApi, type TabsApi } from "./endpoints/tabs";
import { toolsApi, type ToolsApi } from "./endpoints/tools";
import { memoryApi, type MemoryApi } from "./endpoints/memory";
import { workflowsApi, type WorkflowsApi } from "./endpoints/workflows";
import { modelProfilesApi, type ModelProfilesApi } from "./endpoints/modelprofiles";
import { sharingApi, type SharingApi } from "./endpoints/sharing";
import { usageApi, type UsageApi } from "./endpoints/usage";
import { browserProfilesApi, type BrowserProfilesApi } from "./endpoints/browserprofiles";
import { vaultApi, type VaultApi } from "./endpoints/vault";

export type ApiClient = AuthApi &
  ConversationsApi &
  RunsApi &
  TabsApi &
  ToolsApi &
  MemoryApi &
  WorkflowsApi &
  ModelProfilesApi &
  SharingApi &
  UsageApi &
  BrowserProfilesApi &
  VaultApi;

export function createApiClient(options: HttpOptions = {}): ApiClient {
  const request = httpRequest(options);
  return {
    ...authApi(request),
    ...conversationsApi(request),
    ...runsApi(request),
    ...tabsApi(request),
    ...toolsApi(request),
    ...memoryApi(request),
    ...workflowsApi(request),
    ...modelProfilesApi(request),
    ...sharingApi(request),
    ...usageApi(request),
    ...browserProfilesApi(request),
    ...vaultApi(request),
  };
}
