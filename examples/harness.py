"""Runs every example once: the harness `vtlint check --runtime` traces."""

import pitfalls
import seed
import step_counter
import train

if __name__ == "__main__":
    seed.main()
    step_counter.main()
    pitfalls.main()
    train.main()
