"""End-to-end tests: the reader through a real sshd and tmux, as other users."""
