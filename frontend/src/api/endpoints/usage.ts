// What the model cost the signed-in user.

import type { Request } from "../http";
import type { Usage } from "../types";

export type UsageApi = ReturnType<typeof usageApi>;

export function usageApi(request: Request) {
  return {
    /** The last `days` UTC days, today included: calls, tokens and cost per day and model. */
    getUsage(days = 30): Promise<Usage> {
      return request<Usage>("GET", `/usage/?days=${String(days)}`);
    },
  };
}
