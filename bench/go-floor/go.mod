module nrictl.bench/go-floor

go 1.19
