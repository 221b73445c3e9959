// The vault: list by name, add, edit (values replaced, never read back), delete.

import type { Request } from "../http";
import type { Id, VaultCredential, VaultCredentialInput } from "../types";

export type VaultApi = ReturnType<typeof vaultApi>;

export function vaultApi(request: Request) {
  return {
    listVault(): Promise<VaultCredential[]> {
      return request<VaultCredential[]>("GET", "/vault/");
    },
    createVaultCredential(body: VaultCredentialInput): Promise<VaultCredential> {
      return request<VaultCredential>("POST", "/vault/", body);
    },
    updateVaultCredential(id: Id, body: VaultCredentialInput): Promise<VaultCredential> {
      return request<VaultCredential>("PATCH", `/vault/${id}/`, body);
    },
    deleteVaultCredential(id: Id): Promise<void> {
      return request<undefined>("DELETE", `/vault/${id}/`);
    },
  };
}
