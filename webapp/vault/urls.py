from django.urls import path

from webapp.vault import apis

urlpatterns = [
    path("vault/", apis.VaultListApi.as_view(), name="vault-list"),
    path("vault/<int:vault_credential_id>/", apis.VaultDetailApi.as_view(), name="vault-detail"),
]
