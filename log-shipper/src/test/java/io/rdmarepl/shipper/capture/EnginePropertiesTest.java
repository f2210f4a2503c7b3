package io.rdmarepl.shipper.capture;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.shipper.config.ShipperConfig;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The applier's bookkeeping schema stays out of capture whatever else the operator filters. */
class EnginePropertiesTest {

    @Test
    void shouldExcludeTheBookkeepingSchemaFromAnAllTablesPublication() {
        Properties engine = EngineProperties.of(config(Map.of()), Map.of(), "initial");
        assertThat(engine.getProperty("publication.autocreate.mode")).isEqualTo("all_tables");
        assertThat(engine.getProperty("schema.exclude.list")).isEqualTo("rdmarepl");
        assertThat(engine.getProperty("table.include.list")).isNull();
    }

    @Test
    void shouldCombineTheExclusionWithATableList() {
        Properties engine = EngineProperties.of(config(Map.of("publication.tables", "public.accounts")), Map.of(), "no_data");
        assertThat(engine.getProperty("table.include.list")).isEqualTo("public\\.accounts");
        assertThat(engine.getProperty("schema.exclude.list")).isEqualTo("rdmarepl");
    }

    @Test
    void shouldKeepTheOperatorsSchemaExclusionsAndAddItsOwn() {
        Properties engine = EngineProperties.of(config(Map.of("debezium.schema.exclude.list", "audit,staging")), Map.of(), "no_data");
        assertThat(engine.getProperty("schema.exclude.list")).isEqualTo("rdmarepl,audit,staging");
    }

    @Test
    void shouldLeaveAnOperatorsSchemaInclusionAloneAsDebeziumRefusesBoth() {
        Properties engine = EngineProperties.of(config(Map.of("debezium.schema.include.list", "public")), Map.of(), "no_data");
        assertThat(engine.getProperty("schema.include.list")).isEqualTo("public");
        assertThat(engine.getProperty("schema.exclude.list")).isNull();
    }

    private static ShipperConfig config(Map<String, String> extra) {
        Properties p = new Properties();
        p.setProperty("standbys", "a");
        p.setProperty("standby.a.uri", "shm:///dev/shm/a");
        extra.forEach(p::setProperty);
        return ShipperConfig.load(p);
    }
}
