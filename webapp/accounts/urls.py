from django.urls import path

from webapp.accounts import apis

urlpatterns = [
    path("csrf/", apis.CsrfApi.as_view(), name="auth-csrf"),
    path("signup/", apis.SignupApi.as_view(), name="auth-signup"),
    path("login/", apis.LoginApi.as_view(), name="auth-login"),
    path("logout/", apis.LogoutApi.as_view(), name="auth-logout"),
    path("me/", apis.MeApi.as_view(), name="auth-me"),
    path("token/", apis.TokenApi.as_view(), name="auth-token"),
]
