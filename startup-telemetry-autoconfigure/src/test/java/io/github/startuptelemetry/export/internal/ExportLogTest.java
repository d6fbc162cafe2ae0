package io.github.startuptelemetry.export.internal;

import java.io.IOException;
import java.net.ConnectException;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link ExportLog}: the export's log category, and a failure in a few words. */
class ExportLogTest {

	@Test
	void theExportLogsUnderTheCategoryUsersAlreadyConfigure() {
		assertThat(ExportLog.CATEGORY).isEqualTo(StartupExport.class.getName());
	}

	@Test
	void aFailureIsItsRootCauseNeverItsTrace() {
		assertThat(ExportLog.reason(new IOException("wrapped", new ConnectException("Connection refused"))))
			.isEqualTo("ConnectException: Connection refused");
		assertThat(ExportLog.reason(null)).isEqualTo("the export failed");
	}

}
