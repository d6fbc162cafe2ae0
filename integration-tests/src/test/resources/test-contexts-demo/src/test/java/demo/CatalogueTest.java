package demo;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;

@SpringBootTest
class CatalogueTest {

	@Autowired
	DemoApplication.Catalogue catalogue;

	@Test
	void loads() {
		assertThat(this.catalogue).isNotNull();
	}

}
