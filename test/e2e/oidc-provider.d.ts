// oidc-provider ships no types; the sign-in test uses it through a narrow cast of its own.
declare module 'oidc-provider';
