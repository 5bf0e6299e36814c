/**
 * The start-up files of bash, sh and zsh in a home or a project: a shell started later runs them, so a write to one
 * runs code outside the command that wrote it. The sandbox keeps them read-only; the permission check asks first.
 */
export const posix: ReadonlyArray<string> = [
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
  ".profile",
  ".zshrc",
  ".zshenv",
  ".zprofile",
  ".zlogin"
]
