// Model profiles and provider presets.

import type { Request } from "../http";
import type { ConnectionCheck, Id, ModelProfile, ModelProfileInput, ModelProviders } from "../types";

export type ModelProfilesApi = ReturnType<typeof modelProfilesApi>;

export function modelProfilesApi(request: Request) {
  return {
    listModelProfiles(): Promise<ModelProfile[]> {
      return request<ModelProfile[]>("GET", "/model-profiles/");
    },
    createModelProfile(body: ModelProfileInput): Promise<ModelProfile> {
      return request<ModelProfile>("POST", "/model-profiles/", body);
    },
    /** A partial update: a missing `api_key` keeps the stored key, `api_key: ""` removes it. */
    updateModelProfile(id: Id, body: ModelProfileInput): Promise<ModelProfile> {
      return request<ModelProfile>("PATCH", `/model-profiles/${id}/`, body);
    },
    deleteModelProfile(id: Id): Promise<void> {
      return request<undefined>("DELETE", `/model-profiles/${id}/`);
    },
    /** Sends the profile's model a tiny request: whether it answered, and how fast. */
    testModelProfile(id: Id): Promise<ConnectionCheck> {
      return request<ConnectionCheck>("POST", `/model-profiles/${id}/test/`);
    },
    /** Provider presets (default base URL, capabilities) and the server's default model, if any. */
    listModelProviders(): Promise<ModelProviders> {
      return request<ModelProviders>("GET", "/model-providers/");
    },
  };
}
