"""A won hand scored (its patterns counted, the limit) and paid under the rules' scheme."""
