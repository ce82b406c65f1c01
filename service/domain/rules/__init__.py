"""The rules and their vocabulary: tiles, hands, winning forms, patterns, versions, schemes."""
