// The active tab's WebMCP tools, calling one by hand, and this conversation's SKILL switches.

import type { Request } from "../http";
import type { ConversationSkill, Id, PageTools, Run, ToolCallBody } from "../types";

export type ToolsApi = ReturnType<typeof toolsApi>;

export function toolsApi(request: Request) {
  return {
    /** The active tab's WebMCP tools (the page's and SKILLs') and the health of the SKILLs matching it. */
    getTools(conversationId: Id): Promise<PageTools> {
      return request<PageTools>("GET", `/conversations/${conversationId}/tools/`);
    },
    /** Calls a tool of the active tab by hand: 202 with a Run whose one step carries the result and a screenshot. */
    callTool(conversationId: Id, body: ToolCallBody): Promise<Run> {
      return request<Run>("POST", `/conversations/${conversationId}/tools/call/`, body);
    },
    /** Every SKILL of the library, with whether it is on in this conversation. */
    listConversationSkills(conversationId: Id): Promise<ConversationSkill[]> {
      return request<ConversationSkill[]>("GET", `/conversations/${conversationId}/skills/`);
    },
    setConversationSkill(conversationId: Id, skillId: Id, enabled: boolean): Promise<ConversationSkill> {
      return request<ConversationSkill>("POST", `/conversations/${conversationId}/skills/${skillId}/`, { enabled });
    },
  };
}
