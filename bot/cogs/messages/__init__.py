"""What goes out to Discord: boards, answers, where each message goes, and what is retried."""
