package demo;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.bean.override.mockito.MockitoBean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.given;

@SpringBootTest
class GreetingTest {

	@Autowired
	DemoApplication.GreetingService greetings;

	@Test
	void greets() {
		assertThat(this.greetings.greet("you")).isEqualTo("hello you");
	}

	/** One mocked bean in one class only: a context of its own, where the enclosing one would do. */
	@Nested
	class WhenMocked {

		@MockitoBean
		DemoApplication.GreetingService mocked;

		@Test
		void greetsAsTold() {
			given(this.mocked.greet("you")).willReturn("hi");
			assertThat(this.mocked.greet("you")).isEqualTo("hi");
		}

	}

}
