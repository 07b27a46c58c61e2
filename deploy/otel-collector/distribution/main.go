// otelcol-footprint: the smallest OpenTelemetry Collector that runs deploy/otel-collector/*.yaml.
// Why it exists: the stack's configuration is tested against the real collector, and a user can
// build exactly that collector with `go build` (README.md here) instead of trusting a
// validated-only config. Every collector module is pinned at ONE release (contrib v0.161.0, core
// v0.161.0 / v1.67.0) in go.mod; docker-compose.yml pins the matching contrib image.
package main

import (
	"log"

	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/confmap"
	"go.opentelemetry.io/collector/confmap/provider/envprovider"
	"go.opentelemetry.io/collector/confmap/provider/fileprovider"
	"go.opentelemetry.io/collector/otelcol"
)

// collectorVersion is the aligned release of every collector module in go.mod.
const collectorVersion = "0.161.0"

func main() {
	settings := otelcol.CollectorSettings{
		BuildInfo: component.BuildInfo{
			Command:     "otelcol-footprint",
			Description: "OpenTelemetry Collector with the components footprint-otel's stack uses",
			Version:     collectorVersion,
		},
		Factories: components,
		ConfigProviderSettings: otelcol.ConfigProviderSettings{
			ResolverSettings: confmap.ResolverSettings{
				// file: for --config, env: for ${env:FOOTPRINT_SAMPLE_PERCENT} and friends.
				ProviderFactories: []confmap.ProviderFactory{fileprovider.NewFactory(), envprovider.NewFactory()},
				DefaultScheme:     "env",
			},
		},
	}
	if err := otelcol.NewCommand(settings).Execute(); err != nil {
		log.Fatal(err)
	}
}
