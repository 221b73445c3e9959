"""Admin for accounts: personal API tokens are never listed (knox registers its token model; it is taken out)."""

from django.contrib import admin
from knox.models import AuthToken

if admin.site.is_registered(AuthToken):
    admin.site.unregister(AuthToken)
